/**
 * The delivery library: render a template, send it through a provider, decide on a retry.
 * A dispatcher job uses `createProviders()` once (it keeps connections and tokens), maps a
 * push platform row onto the provider's config fields, and stores each DeliveryResult.
 */

export {
  escapeHtml,
  isKnownTemplateParam,
  type LangMatch,
  normalizeLang,
  type PickedTemplate,
  pickTemplate,
  placeholdersOf,
  type Rendered,
  type RenderOptions,
  render,
  TEMPLATE_PARAM_GROUPS,
  type TemplateParamGroup,
  type TemplateParamName,
  type TemplateParams,
  type TemplateText,
  type TemplateValue,
} from '@iot/contract';
export { type AliyunSmsConfig, aliyunSmsConfigSchema, createAliyunSmsProvider } from './adapters/aliyun-sms.js';
export { type ApnsConfig, apnsConfigSchema, createApnsProvider } from './adapters/apns.js';
export { createEmailProvider, type EmailConfig, type EmailProviderOptions, emailConfigSchema } from './adapters/email.js';
export { createFcmProvider, type FcmConfig, fcmConfigSchema } from './adapters/fcm.js';
export { createHonorProvider, type HonorConfig, honorConfigSchema } from './adapters/honor.js';
export { createHuaweiProvider, type HuaweiConfig, huaweiConfigSchema } from './adapters/huawei.js';
export { createOppoProvider, type OppoConfig, oppoConfigSchema } from './adapters/oppo.js';
export { createTencentSmsProvider, type TencentSmsConfig, tencentSmsConfigSchema } from './adapters/tencent-sms.js';
export { createVivoProvider, type VivoConfig, vivoConfigSchema } from './adapters/vivo.js';
export {
  createWebhookProvider,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookBody,
  type WebhookConfig,
  webhookConfigSchema,
  webhookSignature,
} from './adapters/webhook.js';
export { createXiaomiProvider, type XiaomiConfig, xiaomiConfigSchema } from './adapters/xiaomi.js';
export {
  DEFAULT_TIMEOUT_MS,
  type DeliveryFailure,
  type DeliveryMessage,
  type DeliveryProvider,
  type DeliveryResult,
  type DeliverySuccess,
  type ProviderKind,
  type ProviderOptions,
  type Recipient,
  redact,
} from './provider.js';
export { createProviders, type Providers } from './providers.js';
export { type AttemptOutcome, DEFAULT_RETRY_POLICY, nextRetry, type RetryDecision, type RetryPolicy, retryDelayMs } from './retry.js';
