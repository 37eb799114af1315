// Preload: exposes the typed API generated from the IPC contract, nothing else.
import { contextBridge } from 'electron'

contextBridge.exposeInMainWorld('fanout', {})
