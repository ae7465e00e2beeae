import { expect, it } from "vitest";
import { describeEachDialect, useTestDatabase } from "../test/harness.js";
import { createJobQueue } from "./jobs.js";

const log = { warn() {}, error() {}, info() {} } as unknown as Parameters<typeof createJobQueue>[0]["log"];

describeEachDialect("job queue", (dialect) => {
  const database = useTestDatabase(dialect);

  it("runs queued jobs once and records them done", async () => {
    const queue = createJobQueue({ database, log });
    const seen: unknown[] = [];
    queue.register("echo", async (p) => {
      seen.push(p.n);
    });
    await queue.enqueue("echo", { n: 1 });
    await queue.enqueue("echo", { n: 2 });
    expect(await queue.drain()).toBe(2);
    expect(seen).toEqual([1, 2]);
    expect(await queue.drain()).toBe(0);
    const rows = await database.db.selectFrom("job").select("status").where("kind", "=", "echo").execute();
    expect(rows.map((r) => r.status)).toEqual(["done", "done"]);
  });

  it("retries a failing job with back-off and keeps the error after the last attempt", async () => {
    const queue = createJobQueue({ database, log });
    let calls = 0;
    queue.register("flaky", async () => {
      calls++;
      throw new Error("decoder exploded");
    });
    const id = await queue.enqueue("flaky", {});
    await queue.drain();
    expect(calls).toBe(1);
    let row = await database.db.selectFrom("job").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "queued", last_error: "decoder exploded" });
    for (let i = 0; i < 2; i++) {
      await database.db
        .updateTable("job")
        .set({ run_after: new Date(0).toISOString() })
        .where("id", "=", id)
        .execute();
      await queue.drain();
    }
    row = await database.db.selectFrom("job").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.status).toBe("failed");
    expect(Number(row.attempts)).toBe(3);
    expect((await queue.recent()).map((j) => j.id)).toContain(id);
  });

  it("picks up a job left running by a process that died", async () => {
    const queue = createJobQueue({ database, log });
    let ran = 0;
    queue.register("orphan", async () => {
      ran++;
    });
    const id = await queue.enqueue("orphan", {});
    const longAgo = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    await database.db
      .updateTable("job")
      .set({ status: "running", attempts: 1, updated_at: longAgo })
      .where("id", "=", id)
      .execute();
    await queue.drain();
    expect(ran).toBe(1);
    expect(
      (await database.db.selectFrom("job").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status,
    ).toBe("done");
  });

  it("never runs one job twice when two workers poll at once", async () => {
    const a = createJobQueue({ database, log });
    const b = createJobQueue({ database, log });
    const runs = new Map<number, number>();
    const handler = async (p: Record<string, unknown>) => {
      const n = Number(p.n);
      runs.set(n, (runs.get(n) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 5));
    };
    a.register("shared", handler);
    b.register("shared", handler);
    for (let n = 0; n < 20; n++) await a.enqueue("shared", { n });
    await Promise.all([a.drain(), b.drain()]);
    expect([...runs.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect([...runs.values()].every((c) => c === 1)).toBe(true);
  });

  it("stops without waiting past its grace for a job that does not finish, and says which job", async () => {
    const warnings: unknown[] = [];
    const queue = createJobQueue({
      database,
      log: { ...log, warn: (o: unknown) => warnings.push(o) } as unknown as typeof log,
    });
    let entered: () => void = () => {};
    const started = new Promise<void>((r) => {
      entered = r;
    });
    queue.register("stuck", () => {
      entered();
      return new Promise<void>(() => {});
    });
    const id = await queue.enqueue("stuck", {});
    queue.start(10);
    await started;
    const t0 = performance.now();
    await queue.stop(200);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(warnings).toEqual([{ job: id, kind: "stuck", graceMs: 200 }]);
  });
});
