// The model layer's public surface.
export { createModelClient, type ModelClientConfig } from './client'
export {
  DEFAULT_MODEL_ALIASES,
  MODEL_FAMILIES,
  aliasesFromListing,
  familyOf,
  isAlias,
  refreshModelAliases,
  resolveModel,
  type AliasRefresh,
  type ModelAliases,
  type ModelFamily,
  type ResolveModelInput
} from './aliases'
export { DEFAULT_PRICES, costOf, usageWithCost, type ModelPrice, type PriceTable, type TokenCounts } from './pricing'
export { MissingCredentialsError, ModelAbortedError, ModelCallError, StreamIncompleteError, UnknownModelError } from './errors'
export { DEFAULT_MAX_TOKENS } from './request-body'
export type * from './types'
