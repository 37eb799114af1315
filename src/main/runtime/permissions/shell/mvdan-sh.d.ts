// The part of mvdan-sh (mvdan/sh's syntax package compiled to JavaScript with GopherJS) that Fanout uses.
// Nodes are Go structs seen from JavaScript: fields by their Go names, positions through methods.
declare module 'mvdan-sh' {
  export interface ShPos {
    Offset(): number
    Line(): number
    Col(): number
  }
  export interface ShNode {
    Pos(): ShPos
    End(): ShPos
    [field: string]: any
  }
  export interface ShParser {
    /** Throws a Go error object (its message from `.Error()`) on a syntax error. */
    Parse(src: string, name: string): ShNode
  }
  export const syntax: {
    NewParser(...options: unknown[]): ShParser
    NodeType(node: ShNode): string
    Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void
  }
}
