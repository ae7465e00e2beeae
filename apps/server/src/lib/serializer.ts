import fastJson from "fast-json-stringify";
import { z } from "zod";

type JsonSchema = { [key: string]: unknown };

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * zod's `X | null` comes out as `anyOf: [X, {type: "null"}]`; fast-json-stringify would pick the branch by
 * running a validator on every value. A type list says the same and serialises in one step.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) if (k !== "$schema") out[k] = simplify(v);
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullIndex = anyOf.findIndex((s) => isObject(s) && s.type === "null" && Object.keys(s).length === 1);
    const other = anyOf[1 - nullIndex];
    if (nullIndex !== -1 && isObject(other) && typeof other.type === "string" && !("anyOf" in other)) {
      const { anyOf: _drop, ...rest } = out;
      const merged: JsonSchema = { ...rest, ...other, type: [other.type, "null"] };
      // A union branch is chosen by validating against it: null must pass the enum too.
      if (Array.isArray(other.enum)) merged.enum = [...other.enum, null];
      return merged;
    }
  }
  return out;
}

/** The JSON schema of what a zod schema outputs, shaped for fast-json-stringify. */
export function responseJsonSchema(schema: z.ZodType): JsonSchema {
  return simplify(z.toJSONSchema(schema, { target: "draft-07", io: "output", unrepresentable: "any" })) as JsonSchema;
}

/**
 * A compiled serializer for a route's response schema. The zod schema stays the one source of truth; its
 * JSON schema is compiled once by fast-json-stringify instead of parsing every response through zod.
 */
export function compileSerializer(schema: unknown): (data: unknown) => string {
  if (!isObject(schema)) return fastJson({});
  let fn = compiled.get(schema);
  if (!fn) {
    fn = schema instanceof z.ZodType ? fastJson(responseJsonSchema(schema)) : fastJson(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

// One compiled function per schema object: routes and cached answers share it.
const compiled = new WeakMap<object, (data: unknown) => string>();
