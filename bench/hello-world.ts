// The reference for bench:api: a bare Fastify server answering GET / with {"hello":"world"}, in its own process,
// measured in the same run as the app so its figures share the machine's state.
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));
await app.listen({ port: Number(process.env.PORT ?? 3001), host: process.env.HOST ?? "127.0.0.1" });

const close = () => void app.close().then(() => process.exit(0));
process.on("SIGTERM", close);
process.on("SIGINT", close);
