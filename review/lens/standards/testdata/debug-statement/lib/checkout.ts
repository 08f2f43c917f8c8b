// A return type annotation before the body does not hide the statement.
export function checkout(total: number): Map<string, number[]> | null {
  debugger; // want "Debugger breakpoint left in"
  return null;
}

// An object literal key named debugger is not a statement.
export const flags = {
  debugger: true,
};
