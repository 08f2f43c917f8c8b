export function generateToken(): string {
  return Math.random().toString(36).slice(2); // want "Math.random\(\) makes a token"
}

export const csrf = Math.random().toString(16); // want "CSRF token"

// Near misses.
export function retryDelay(attempt: number): number {
  return 100 * 2 ** attempt + Math.random() * 100;
}

export const rowKey = () => Math.random().toString(36);
