import { connection } from "next/server";
import { SignIn } from "./sign-in";

/** Rendered on every request, like Krug's pages: a heading, a paragraph and one client island. */
export default async function Page() {
  await connection();
  return (
    <main>
      <h1>Sign in</h1>
      <p>A page of Next.js and React with nothing else: the floor under every page of Krug.</p>
      <SignIn />
    </main>
  );
}
