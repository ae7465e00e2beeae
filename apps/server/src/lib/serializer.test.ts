import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileSerializer, responseJsonSchema } from "./serializer.js";

describe("compiled response serialisers", () => {
  const schema = z.object({
    id: z.string(),
    vote: z.enum(["up", "down"]).nullable(),
    ref: z.object({ id: z.string() }).nullable(),
    result: z.discriminatedUnion("ok", [
      z.object({ ok: z.literal(true), vote: z.enum(["up", "down"]).nullable() }),
      z.object({ ok: z.literal(false), reason: z.string() }),
    ]),
  });

  it("writes what zod would output, dropping fields the schema does not name", () => {
    const serialize = compileSerializer(schema);
    const value = { id: "a", vote: null, ref: { id: "r", secret: 1 }, result: { ok: true, vote: null }, extra: "x" };
    expect(JSON.parse(serialize(value))).toEqual(schema.parse(value));
    const other = { id: "b", vote: "up", ref: null, result: { ok: false, reason: "no" } };
    expect(JSON.parse(serialize(other))).toEqual(schema.parse(other));
  });

  it("turns nullable unions into type lists, keeping null allowed by enums", () => {
    const json = responseJsonSchema(schema) as { properties: Record<string, Record<string, unknown>> };
    expect(json.properties.vote).toEqual({ type: ["string", "null"], enum: ["up", "down", null] });
    expect(json.properties.ref?.type).toEqual(["object", "null"]);
    expect(json.properties.ref?.anyOf).toBeUndefined();
  });

  it("refuses an answer that lacks a required field instead of sending half of it", () => {
    expect(() => compileSerializer(schema)({ vote: null, ref: null, result: { ok: false, reason: "" } })).toThrow(/id/);
  });

  it("compiles each schema once", () => {
    expect(compileSerializer(schema)).toBe(compileSerializer(schema));
  });
});
