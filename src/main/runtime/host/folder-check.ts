// A folder a call names must be one Fanout can work in, checked before anything is started or queued:
// it exists, it is a folder (not a file), and this user can list and enter it. Each refusal says which.
import { constants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { HostCallError } from '../../../shared/host-call-error'
import { errorMessage } from '../../../shared/error-message'

export async function requireFolder(cwd: string): Promise<string> {
  const dir = resolve(cwd)
  let info
  try {
    info = await stat(dir)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new HostCallError('not_found', `${dir} does not exist.`, { cwd: 'This folder does not exist.' })
    if (code === 'ENOTDIR')
      throw new HostCallError('invalid_request', `${dir} is not a folder: a part of its path is a file.`, { cwd: 'A part of this path is a file.' })
    if (code === 'EACCES' || code === 'EPERM')
      throw new HostCallError('forbidden', `${dir} cannot be opened: permission denied.`, { cwd: 'You may not open this folder.' })
    throw new HostCallError('invalid_request', `${dir} cannot be used: ${errorMessage(err)}`)
  }
  if (!info.isDirectory()) throw new HostCallError('invalid_request', `${dir} is a file, not a folder.`, { cwd: 'This is a file, not a folder.' })
  try {
    await access(dir, constants.R_OK | constants.X_OK)
  } catch {
    throw new HostCallError('forbidden', `${dir} cannot be read: you may not list or enter this folder.`, { cwd: 'You may not read this folder.' })
  }
  return dir
}
