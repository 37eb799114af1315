// What a SendMessage message looks like: its tool name, its delivery id and the text the receiving agent
// reads. Kept apart from send-message.ts and delivery.ts, which both need it, so that the delivery ledger can
// recognise a SendMessage call without importing the tool (an import cycle).

export const SEND_MESSAGE_TOOL_NAME = 'SendMessage'

/** The delivery id of a SendMessage call's message. */
export const sendDeliveryId = (toolUseId: string): string => `msg-${toolUseId}`

/** Escapes text for a double-quoted attribute of the tags agents read. */
const attr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\n/g, ' ')

/** A SendMessage message as the receiving agent sees it. */
export function formatAgentMessage(from: string, text: string, summary?: string): string {
  return `<agent-message from="${attr(from)}"${summary ? ` summary="${attr(summary)}"` : ''}>\n${text}\n</agent-message>`
}
