/** The links to MOT's pages (their paths are in `@broker/contract/app-routes` and the route table). */
export const motEventPath = (eventId: number) => `/mot/eventDetail?eventId=${eventId}`;
export const motClientPath = (customerId: number) => `/mot/singleClient?customerId=${customerId}`;
