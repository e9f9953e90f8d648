/** Structured logging as Powertools' Logger offers it: a message and the attributes of the line. */
export interface StructuredLogger {
  info(message: string, attributes: Record<string, unknown>): void;
  warn(message: string, attributes: Record<string, unknown>): void;
  error(message: string, attributes: Record<string, unknown>): void;
}
