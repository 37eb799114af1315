// What reading frontmatter YAML gives: the data with each key's position, or the error and where. Its own
// file so that both readers (yaml-read and its fast path flat-yaml) depend on it and not on each other.
import type { Position } from './diagnostics'

export interface KeyPosition {
  key: Position
  value: Position
}

export interface KeyPosition {
  key: Position
  value: Position
}

export type YamlRead =
  | {
      ok: true
      data: unknown
      keys: Map<string, KeyPosition> /** Keys written twice in one mapping (the last value is used). */
      duplicates?: Array<{ key: string; at: Position }>
    }
  | { ok: false; message: string; at: Position /** What is wrong at `at`, in a person's words, when known. */; hint?: string }
