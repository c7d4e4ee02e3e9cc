import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

/** The `type` categories of the error envelope. */
export type ErrorType =
  | "invalid_request"
  | "authentication"
  | "permission"
  | "not_found"
  | "conflict"
  | "rate_limit"
  | "server"

export interface ErrorMeta {
  readonly code: string
  readonly type: ErrorType
  readonly status: number
}

export const ErrorMetaId: unique symbol = Symbol.for("@hotel/domain/ErrorMeta")

/** The annotation that ties an error class to its wire `code`, `type` and HTTP `status`. */
export const meta = (code: string, type: ErrorType, status: number) => ({ [ErrorMetaId]: { code, type, status } })

export const notFound = (code: string) => meta(code, "not_found", 404)
export const conflict = (code: string) => meta(code, "conflict", 409)
export const invalidRequest = (code: string) => meta(code, "invalid_request", 400)

/** Fields every error carries; `param` only on field-validation errors. */
export const errorFields = {
  message: Schema.String,
  param: Schema.optional(Schema.String)
}

/** A class schema is a transformation to its declaration, which carries the class annotations. */
export const getErrorMeta = (schema: Schema.Schema.Any): Option.Option<ErrorMeta> => {
  const ast = AST.isTransformation(schema.ast) ? schema.ast.to : schema.ast
  return AST.getAnnotation<ErrorMeta>(ast, ErrorMetaId)
}
