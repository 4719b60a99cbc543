/** Global count of API calls in flight; the loading overlay polls it. */
let inFlight = 0;

export const beginRequest = () => {
  inFlight += 1;
};

export const endRequest = () => {
  inFlight = Math.max(0, inFlight - 1);
};

export const requestsInFlight = () => inFlight;
