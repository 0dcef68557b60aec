/** A client as staff see them named on a row, card, sheet or dialog: the Chinese name, else the English. */
export const clientName = (client: { nameCn: string; nameEn: string }) => client.nameCn || client.nameEn;
