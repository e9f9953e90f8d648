/** The key of one rule's state for one device, in the maps of states a run holds. */
export function stateKey(deviceid: string, ruleId: string): string {
  return `${ruleId}\u0000${deviceid}`;
}
