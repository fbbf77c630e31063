// `npm run bench`: runs every benchmark against BENCH_DATABASE_URL, else DATABASE_URL, else a database
// krug_bench on 127.0.0.1:5432 (created and migrated here). Benchmarks report numbers; they never fail a
// build on timing. Options: --explain prints the query plans. Settings (bench only, not app settings):
// BENCH_ACCOUNTS, BENCH_HUB_FRIENDS, BENCH_EDGES_PER_ACCOUNT, BENCH_SKEW (graph), BENCH_RUNS (per query),
// BENCH_POSTS, BENCH_TAGS, BENCH_REACTIONS_PER_POST (posts);
// chat: BENCH_CHAT_RATES, BENCH_CHAT_SECONDS, BENCH_CHAT_PAIRS, BENCH_CHAT_SOCKETS (bench/chat.ts).
// notifications: BENCH_NOTIFICATIONS (bench/notifications.ts). --only=friends|posts|chat|notifications runs one.
import { closeDb } from "@/db/client";
import { benchChat, printChat } from "./chat";
import { benchDatabaseUrl, prepareBenchDatabase } from "./database";
import { benchFriends, printTimings } from "./friends";
import { benchNotifications } from "./notifications";
import { benchPosts } from "./posts";

const BENCHMARKS = [
  { name: "friends", run: async (url: string, o: { explain: boolean }) => printTimings("friends", await benchFriends(url, o)) },
  { name: "posts", run: async (url: string, o: { explain: boolean }) => printTimings("posts", await benchPosts(url, o)) },
  { name: "chat", run: async () => printChat(await benchChat()) },
  { name: "notifications", run: async (url: string, o: { explain: boolean }) => printTimings("notifications", await benchNotifications(url, o)) },
];

async function main() {
  const url = benchDatabaseUrl();
  const explain = process.argv.includes("--explain");
  const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
  console.log(`benchmark database: ${new URL(url).host}${new URL(url).pathname}`);
  await prepareBenchDatabase(url);
  // The services read DATABASE_URL through db/client.
  process.env.DATABASE_URL = url;
  process.env.LOG_LEVEL ??= "warn";
  // The chat bench signs tokens that its own sidecar process must accept.
  process.env.AUTH_SECRET ??= `bench-${Date.now()}-secret-of-at-least-32-characters`;
  try {
    for (const b of BENCHMARKS) {
      if (only && only !== b.name) continue;
      await b.run(url, { explain });
    }
  } finally {
    await closeDb();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
