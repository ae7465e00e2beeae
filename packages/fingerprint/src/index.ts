/** Audio fingerprinting (spec §9); filled in by the fingerprinting issue. */
export const FINGERPRINT_SAMPLE_RATE = 5512;
