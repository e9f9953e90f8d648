import type { StackContext } from "sst/constructs";

/**
 * The pipeline's stack. It holds no resource yet: the table, topic, queues, bucket, functions and
 * alarms are described by the infrastructure issue. It exists so that the app synthesizes offline
 * from day one and the synth test guards the toolchain.
 */
export function Pipeline({ stack }: StackContext) {
  stack.addOutputs({ Stage: stack.stage });
}
