/** The version reported by --version and in the User-Agent. */
export const VERSION = "0.1.0";
