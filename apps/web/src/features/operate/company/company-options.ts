import { COMPANY_TYPES } from '@iot/contract';
import type { FieldOption } from '../../../components/field-config';

/** The nine company types (labels `company.types.<n>`); reused by register and user screens. */
export const COMPANY_TYPE_OPTIONS: FieldOption[] = COMPANY_TYPES.map((v) => ({ value: v, label: `company.types.${v}` }));
