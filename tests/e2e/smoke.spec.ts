import { expect, test } from "./fixtures";

test("health and readiness answer on the app's origin", async ({ request }) => {
  expect((await request.get("/api/health")).status()).toBe(200);
  const ready = await request.get("/api/ready");
  expect(ready.status()).toBe(200);
  expect((await ready.json()).ready).toBe(true);
});
