import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type { Function as SstFunction } from "sst/constructs";
import { keys } from "../packages/core/src/store/keys.js";
import { type Alerting, grantTellOps } from "./alerting.js";
import { allow } from "./functions.js";

/**
 * A function that sets records aside or sweeps them (packages/core/src/setaside): it tells the ops
 * topic, and clears the marks of the records ops were told of. Those marks have a partition of their
 * own per account (`SETASIDEOWED#<account>`), so that deleting is granted there and nowhere else.
 */
export function grantSetAside(
  fn: SstFunction,
  alerting: Pick<Alerting, "opsTopic" | "topicKey">,
  table: dynamodb.Table,
) {
  grantTellOps(fn, alerting);
  allow(fn, ["dynamodb:DeleteItem"], [table.tableArn], {
    "ForAllValues:StringLike": { "dynamodb:LeadingKeys": [keys.setAsideOwed("*")] },
  });
}
