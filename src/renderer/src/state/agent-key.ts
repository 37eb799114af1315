// One agent of one session as a map key: the turns of text-cadence.ts, the keyed subscriptions and the streamed tails.
export const agentKey = (sessionId: string, agentId: string): string => `${sessionId}\u0000${agentId}`
