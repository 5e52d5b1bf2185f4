export interface Greeting {
  name: string;
  excited: boolean;
}

export class Greeter {
  constructor(private readonly prefix = "Hello") {}

  greet(greeting: Greeting): string {
    // TODO: localise the prefix
    return `${this.prefix}, ${greeting.name}${greeting.excited ? "!" : "."}`;
  }
}

export function shout(text: string): string {
  return text.toUpperCase();
}
