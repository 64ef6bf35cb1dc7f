// Who is signed in (GET /api/auth/me), shared by the pages.
import { api, ApiError } from "./api";
import type { User } from "./types";

let user: User | null = null;
const listeners: (() => void)[] = [];

export function currentUser(): User | null {
  return user;
}

export function isInstructor(): boolean {
  return user !== null && (user.role === "instructor" || user.role === "admin");
}

export async function loadSession(): Promise<void> {
  try {
    user = await api.me();
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
    user = null;
  }
}

export function setUser(next: User | null): void {
  user = next;
  listeners.forEach((f) => f());
}

export function onSessionChange(f: () => void): void {
  listeners.push(f);
}
