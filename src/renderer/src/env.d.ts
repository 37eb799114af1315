// Vite bundles CSS imported for its side effects.
declare module '*.css'
