/** The `producer` of every event this service publishes (the service kit's requestOrigin names it). */
export const SERVICE_PRODUCER = 'discussions';
