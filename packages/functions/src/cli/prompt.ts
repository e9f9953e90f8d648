import { createInterface } from "node:readline/promises";
import { CliError } from "./parse.js";

// Questions go to stderr: stdout carries only a command's results, so that it can be piped.

const ENTER = new Set(["\r", "\n", "\u0004"]); // Return, or Ctrl-D
const CTRL_C = "\u0003";
const BACKSPACE = new Set(["\u007f", "\b"]);

/**
 * Reads a line typed at the terminal without echoing it: a password. The terminal is in raw mode
 * meanwhile, so Ctrl-C arrives as a character, not as SIGINT, and cancels.
 */
export async function askHidden(question: string): Promise<string> {
  const input = process.stdin;
  // Raw before the question shows: whatever is typed after it must not echo.
  input.setRawMode(true);
  process.stderr.write(question);
  input.setEncoding("utf8");
  input.resume();
  let onData: ((chunk: string) => void) | undefined;
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed: string[] = [];
      onData = (chunk) => {
        // A paste arrives as one chunk: read it character by character.
        for (const character of chunk) {
          if (ENTER.has(character)) return resolve(typed.join(""));
          if (character === CTRL_C) return reject(new CliError("cancelled"));
          typed = BACKSPACE.has(character) ? typed.slice(0, -1) : [...typed, character];
        }
      };
      input.on("data", onData);
    });
  } finally {
    if (onData) input.off("data", onData);
    input.setRawMode(false);
    input.pause();
    process.stderr.write("\n");
  }
}

/** Asks a question at the terminal and returns the answer as typed (trimmed). */
export async function ask(question: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await terminal.question(question)).trim();
  } finally {
    terminal.close();
  }
}
