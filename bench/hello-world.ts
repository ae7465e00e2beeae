// A bare Fastify hello-world: the ceiling the API benchmark compares every scenario with. Its own process.
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
const address = app.server.address();
process.stdout.write(`listening ${typeof address === "object" && address ? address.port : ""}\n`);
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
