export function upload(file: File): Promise<void> {
  throw new Error("Method not implemented."); // want "Stub left in upload: throw new Error"
}

export function download(id: string) { // want "Stub left in download: a body with only a TODO"
  // TODO: fetch the file
}

export const remove = (id: string) => {
  throw new Error('TODO: remove'); // want "Stub left in remove"
};

// Near misses: an abstract method's error, an ordinary error, an empty
// callback.
export class Base {
  render(): string {
    throw new Error("render must be implemented by a subclass");
  }
}

export function parse(s: string): number {
  if (!s) {
    throw new Error("empty input");
  }
  return Number(s);
}

export const noop = () => {};
