import { GetObjectLockConfigurationCommand, type S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import type { ObjectLockSettings, ObjectLockState } from "../ports.js";

/** The bucket's Object Lock configuration; a bucket made without it answers ObjectLockConfigurationNotFoundError. */
export class S3ObjectLock implements ObjectLockSettings {
  constructor(private readonly s3: S3Client) {}

  async state(bucket: string): Promise<ObjectLockState> {
    try {
      const { ObjectLockConfiguration: config } = await this.s3.send(
        new GetObjectLockConfigurationCommand({ Bucket: bucket }),
      );
      if (config?.ObjectLockEnabled !== "Enabled") return { enabled: false };
      const retention = config.Rule?.DefaultRetention;
      return {
        enabled: true,
        ...(retention?.Mode && { mode: retention.Mode }),
        ...(retention?.Days !== undefined && { days: retention.Days }),
        ...(retention?.Years !== undefined && { years: retention.Years }),
      };
    } catch (error) {
      if (error instanceof S3ServiceException && error.name === "ObjectLockConfigurationNotFoundError")
        return { enabled: false };
      throw error;
    }
  }
}

/**
 * The local mode's S3 emulator (fauxqs 1.9) has no Object Lock: asking it would read a bucket
 * listing as a configuration and report "off".
 */
export const EMULATOR_OBJECT_LOCK: ObjectLockSettings = {
  state: async () => ({
    unsupported: "the local mode's S3 emulator has no Object Lock (a deployed stage's bucket is checked)",
  }),
};
