import { prepareTemplate } from './db.js';

export default async function setup() {
  return prepareTemplate();
}
