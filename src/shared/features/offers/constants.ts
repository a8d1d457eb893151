export const offersPath = (moduleId: number | string) => `/api/module/${moduleId}/affiliate-offers`;
