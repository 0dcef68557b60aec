import { contract } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';

// PLACEHOLDER (branch wip-base only): the contact-log helper replaces every handler. Never lands as is.
const notYet = (): never => {
  throw new Error('contact log: not implemented yet');
};

export const contactRoutes = implementArea(contract.contact, () => ({
  addContactRecord: notYet,
  reviseContactRecord: notYet,
  getContactRecord: notYet,
  listContactRecords: notYet,
  exportContactRecords: notYet,
}));
