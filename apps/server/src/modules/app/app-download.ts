import {
  type AppVerDetail,
  DOWNLOADS,
  type DownloadLangSource,
  type ExportLabels,
  exportLabelsOf,
  type Language,
  phonePlatformOf,
  pickDownloadLanguage,
} from '@iot/contract';
import { type Download, download, type FileAnswer } from '../../platform/downloads.js';
import { nowSeconds } from '../../platform/time.js';
import { getDownloadApp, getReleasedVersion } from './app.repository.js';

/**
 * The public download link of an app (`GET /api/v2/app/dl/<app_id>?ver=&lang=&zone=`), what its
 * QR code holds: no sign-in. A phone is sent (302) to its package in its language; a desktop
 * browser gets a small page listing both; docs/api.md "Download link".
 */

type Labels = ExportLabels['appDownload'];
const fill = (template: string, vars: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));
const escapeHtml = (v: string) =>
  v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** A language's name in the reader's language (`zh-TW` → "Chinese (Taiwan)"), else its code. */
const languageName = (code: string, reader: Language) => {
  try {
    return new Intl.DisplayNames([reader], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
};

/** An address as a Location header can carry it (non-ASCII percent-encoded), or null. */
const locationOf = (url: string): string | null => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
};

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";
const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#222}' +
  'a.pkg{display:block;padding:.8rem 1rem;margin:.6rem 0;border:1px solid #ccc;border-radius:8px;text-decoration:none;color:#1668dc}' +
  '.note{color:#666;font-size:.9rem}.warn{color:#a15c00}';

const page = (lang: Language, title: string, body: string, status = 200): FileAnswer => ({
  body: Buffer.from(
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`,
  ),
  type: 'text/html; charset=utf-8',
  status,
  csp: PAGE_CSP,
  headers: { vary: 'user-agent, accept-language' },
});

const notFoundPage = (lang: Language, labels: Labels, message: string) =>
  page(lang, labels.not_found_title, `<h1>${escapeHtml(labels.not_found_title)}</h1><p>${escapeHtml(message)}</p>`, 404);

/** The sentence saying which language a download is in and why. */
const languageNote = (labels: Labels, reader: Language, pick: { lang: string; source: DownloadLangSource }) => {
  const name = languageName(pick.lang, reader);
  const text = {
    phone: labels.lang_phone,
    link: labels.lang_link,
    english: labels.lang_english,
    first: labels.lang_first,
  }[pick.source];
  return fill(text, { lang: name });
};

/** The details of the asked zone (default: those for all zones), or all when none is of that zone. */
const detailsOfZone = (details: AppVerDetail[], zone: string | undefined) => {
  const wanted = details.filter((d) => d.zone.toLowerCase() === (zone ?? '').toLowerCase());
  return wanted.length > 0 ? wanted : details;
};

export const appDownloads: Download[] = [
  download(DOWNLOADS.appDownload, async (ctx, input, request) => {
    const labels = exportLabelsOf(ctx.lang).appDownload;
    const app = await getDownloadApp(ctx.conn, input.app_id);
    // An app whose service ended (gmt_expire passed) is offered no more.
    const live = app && (app.gmtExpire === 0 || app.gmtExpire > nowSeconds());
    const version = live ? await getReleasedVersion(ctx.conn, app.id, input.ver) : null;
    if (!app || !version) return notFoundPage(ctx.lang, labels, input.ver && live ? labels.version_not_found : labels.not_found);

    const accept = request.headers['accept-language'];
    const acceptLanguage = Array.isArray(accept) ? accept.join(',') : accept;
    const details = detailsOfZone(version.details, input.zone);
    const androidPick = pickDownloadLanguage(
      details.map((d) => d.lang),
      acceptLanguage,
      request.lang,
    );
    const android = androidPick ? details.find((d) => d.lang === androidPick.lang) : undefined;
    const storeOf = (platform: 'ios' | 'android') => {
      const urls = app.urls.filter((u) => u.platform === platform);
      const pick = pickDownloadLanguage(
        urls.map((u) => u.lang),
        acceptLanguage,
        request.lang,
      );
      return pick ? { pick, url: urls.find((u) => u.lang === pick.lang)?.url as string } : null;
    };
    const ios = storeOf('ios');
    const chosen = (pick: { lang: string; source: DownloadLangSource }) => ({
      vary: 'user-agent, accept-language',
      'content-language': pick.lang,
      'x-download-lang': pick.lang,
      // How the language was chosen: the phone's, the link's, or a fallback (english, first).
      'x-download-lang-source': pick.source,
      'x-download-version': version.ver,
    });

    const platform = phonePlatformOf(request.headers['user-agent']);
    if (platform === 'ios' && ios) {
      const location = locationOf(ios.url);
      if (location) return { body: Buffer.alloc(0), redirect: location, headers: chosen(ios.pick) };
    }
    if (platform === 'android' && android && androidPick) {
      const location = locationOf(android.url);
      if (location) return { body: Buffer.alloc(0), redirect: location, headers: chosen(androidPick) };
    }

    // A desktop browser (or an iPhone for an app without an iOS store url): a page listing both.
    const title = fill(labels.title, { name: app.name });
    const parts = [
      `<h1>${escapeHtml(title)}</h1>`,
      `<p>${escapeHtml(fill(labels.version, { ver: version.ver }))}${version.name ? ` · ${escapeHtml(version.name)}` : ''}</p>`,
    ];
    if (platform === 'ios' && !ios) parts.push(`<p class="warn">${escapeHtml(labels.none_for_ios)}</p>`);
    else parts.push(`<p class="note">${escapeHtml(labels.scan_hint)}</p>`);
    if (ios) {
      parts.push(
        `<a class="pkg" href="${escapeHtml(ios.url)}" rel="noopener" data-platform="ios" hreflang="${escapeHtml(ios.pick.lang)}">${escapeHtml(labels.ios)}</a>`,
      );
      parts.push(`<p class="note" data-note="ios">${escapeHtml(languageNote(labels, ctx.lang, ios.pick))}</p>`);
    }
    if (android && androidPick) {
      const size = android.size > 0 ? ` · ${escapeHtml(fill(labels.size, { mb: (android.size / 1_048_576).toFixed(1) }))}` : '';
      parts.push(
        `<a class="pkg" href="${escapeHtml(android.url)}" rel="noopener" data-platform="android" hreflang="${escapeHtml(androidPick.lang)}">${escapeHtml(labels.android)}${size}</a>`,
      );
      if (android.title) parts.push(`<p><strong>${escapeHtml(android.title)}</strong></p>`);
      if (android.content) parts.push(`<p style="white-space:pre-line">${escapeHtml(android.content)}</p>`);
      parts.push(`<p class="note" data-note="android">${escapeHtml(languageNote(labels, ctx.lang, androidPick))}</p>`);
    }
    const store = storeOf('android');
    if (store)
      parts.push(
        `<a class="pkg" href="${escapeHtml(store.url)}" rel="noopener" data-platform="android-store">${escapeHtml(labels.android_store)}</a>`,
      );
    const answer = page(ctx.lang, title, parts.join(''), platform === 'ios' && !ios ? 404 : 200);
    return androidPick ? { ...answer, headers: chosen(androidPick) } : answer;
  }),
];
