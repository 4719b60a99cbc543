/** Unix seconds now: every time on the wire and in storage (CONTRACT §1). */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
