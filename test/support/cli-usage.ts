/**
 * Checking a `fleet-alerts` command line, as the documentation shows one, against the CLI's own
 * command tree: the commands and subcommands it names exist, and every flag is one the command (or
 * a command above it, as commander accepts) declares. Arguments are not checked: documents show
 * them as examples and placeholders.
 */
import type { Command, Option } from "commander";

// The invocations a page shows: `npm run fleet-alerts -- …`, `npx fleet-alerts …`, `fleet-alerts …`;
// not `fleet-alerts-<stage>`, `@fleet-alerts/core` or a line of output such as `fleet-alerts: …`.
const INVOCATION =
  /(?<![\w@/."-])(?:npm run fleet-alerts(?:\s+--(?=\s|$))?|(?:npx\s+)?fleet-alerts)(?![\w:/."-])/g;
// Where a shell line's command ends: a pipe, a list, a redirection.
const COMMAND_END = /\s(?:\||\|\||&&|;|>|2>)\s|;$/;
const ALWAYS_ALLOWED = new Set(["--help", "-h"]);

/** The `fleet-alerts` invocations in a piece of shown code: the words after the program's name. */
export function invocations(code: string): string[][] {
  const joined = code.replace(/\\\n\s*/g, " ");
  const found: string[][] = [];
  for (const line of joined.split("\n")) {
    const text = line.replace(/(^|\s)#(\s.*)?$/, "");
    for (const match of text.matchAll(INVOCATION)) {
      const rest = text.slice((match.index ?? 0) + match[0].length);
      const end = rest.search(COMMAND_END);
      found.push(words(end === -1 ? rest : rest.slice(0, end)));
    }
  }
  return found;
}

/** What is wrong with one invocation (its words after the program's name), one line each. */
export function usageProblems(program: Command, args: string[]): string[] {
  return walk(program, args, [program.name()]);
}

function walk(command: Command, args: string[], path: string[]): string[] {
  const problems: string[] = [];
  let positional = false;
  let value = false;
  for (const [index, word] of args.entries()) {
    if (value) {
      value = false;
      continue;
    }
    if (word === "--") break;
    if (word.startsWith("-") && word.length > 1) {
      const [flag = word, given] = word.split("=");
      if (ALWAYS_ALLOWED.has(flag)) continue;
      const option = declared(command, flag);
      if (!option) problems.push(`${path.join(" ")}: no flag ${flag}`);
      // The next word is its value, unless given with `=` (an optional one only if it is no flag).
      const next = args[index + 1];
      value =
        option !== undefined &&
        given === undefined &&
        next !== undefined &&
        (option.required || (option.optional && !next.startsWith("-")));
      continue;
    }
    if (positional || command.commands.length === 0) {
      positional = true;
      continue;
    }
    // A placeholder where a command goes (`<command>`) names none: nothing more to check.
    if (/^[<[]/.test(word) || word === "help") break;
    // `show|enable`: each of them, with the rest of the line.
    for (const name of word.split("|")) {
      const sub = command.commands.find(
        (candidate) => candidate.name() === name || candidate.aliases().includes(name),
      );
      if (sub) problems.push(...walk(sub, args.slice(index + 1), [...path, name]));
      else problems.push(`${path.join(" ")}: no command ${name}`);
    }
    return problems;
  }
  return problems;
}

/** The option a flag names on the command or a command above it. */
function declared(command: Command, flag: string): Option | undefined {
  for (let at: Command | null = command; at; at = at.parent) {
    const option = at.options.find((candidate) => candidate.long === flag || candidate.short === flag);
    if (option) return option;
  }
  return undefined;
}

/**
 * A line's words as a shell splits them (quotes kept together), without the brackets a usage
 * synopsis puts around optional parts (`[--before 30]`) and a sentence's trailing punctuation.
 */
function words(text: string): string[] {
  return (text.match(/"[^"]*"|'[^']*'|\S+/g) ?? [])
    .map((word) =>
      /^["']/.test(word) ? word : word.replace(/^[[(]+(?=-)/, "").replace(/[\])]+[.,]?$|[.,]$/, ""),
    )
    .filter((word) => word !== "" && word !== "..." && word !== "…");
}
