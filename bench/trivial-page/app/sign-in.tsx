"use client";
import { useState } from "react";

/** The shape of Krug's sign-in: two fields and a button, with client state (one island that hydrates). */
export function SignIn() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [sent, setSent] = useState(false);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setSent(true);
      }}
      style={{ display: "grid", gap: "0.75rem" }}
    >
      <label>
        E-mail <input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} style={{ width: "100%" }} />
      </label>
      <label>
        Password <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} style={{ width: "100%" }} />
      </label>
      <button type="submit">Sign in</button>
      {sent ? <p role="status">Sent.</p> : null}
    </form>
  );
}
