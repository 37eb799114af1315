// The settings slice of the host's handler table (settings-contract.ts), served by settings-calls.ts.
import type { CallHandlers } from '../../../shared/call-handlers'
import type { SettingsCallName } from '../../../shared/settings-contract'
import type { SettingsCalls } from './settings-calls'

export function settingsHandlers(settings: SettingsCalls): CallHandlers<SettingsCallName> {
  return {
    'settings.get': () => settings.get(),
    'settings.update': settings.update,
    'settings.setApiKey': settings.setApiKey,
    'settings.testConnection': settings.testConnection
  }
}
