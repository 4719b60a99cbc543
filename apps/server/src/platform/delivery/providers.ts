import { createAliyunSmsProvider } from './adapters/aliyun-sms.js';
import { createApnsProvider } from './adapters/apns.js';
import { createEmailProvider, type EmailProviderOptions } from './adapters/email.js';
import { createFcmProvider } from './adapters/fcm.js';
import { createHonorProvider } from './adapters/honor.js';
import { createHuaweiProvider } from './adapters/huawei.js';
import { createOppoProvider } from './adapters/oppo.js';
import { createTencentSmsProvider } from './adapters/tencent-sms.js';
import { createVivoProvider } from './adapters/vivo.js';
import { createWebhookProvider } from './adapters/webhook.js';
import { createXiaomiProvider } from './adapters/xiaomi.js';
import { type DeliveryMessage, type DeliveryResult, fail, type ProviderKind, type Recipient } from './provider.js';

/**
 * Every provider, one instance each: they keep connections (SMTP pools, APNs HTTP/2
 * sessions) and access tokens (FCM, OPPO, Huawei, vivo, Honor, the APNs JWT) between sends,
 * so a dispatcher creates this once and closes it on shutdown.
 */
export const createProviders = (options: EmailProviderOptions = {}) => {
  const providers = {
    email: createEmailProvider(options),
    webhook: createWebhookProvider(options),
    sms_aliyun: createAliyunSmsProvider(options),
    sms_tencent: createTencentSmsProvider(options),
    apns: createApnsProvider(options),
    fcm: createFcmProvider(options),
    xiaomi: createXiaomiProvider(options),
    oppo: createOppoProvider(options),
    huawei: createHuaweiProvider(options),
    vivo: createVivoProvider(options),
    honor: createHonorProvider(options),
  };
  return {
    providers,
    /**
     * Sends through the provider of `kind` with a config not yet typed (a platform row mapped
     * by the caller): it is validated by that provider's schema.
     */
    send(
      kind: ProviderKind,
      config: unknown,
      message: DeliveryMessage,
      recipient: Recipient,
      signal?: AbortSignal,
    ): Promise<DeliveryResult> {
      const provider = (
        providers as Partial<
          Record<ProviderKind, { send(c: unknown, m: DeliveryMessage, r: Recipient, s?: AbortSignal): Promise<DeliveryResult> }>
        >
      )[kind];
      if (!provider) return Promise.resolve(fail(kind, 'no such provider', false, { code: 'CONFIG' }));
      return provider.send(config, message, recipient, signal);
    },
    async close() {
      await Promise.all(Object.values(providers).map((p) => p.close()));
    },
  };
};

export type Providers = ReturnType<typeof createProviders>;
