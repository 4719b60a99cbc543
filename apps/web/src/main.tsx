import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { router } from './app/router';
import { initI18n } from './lib/i18n';
import { ensureLangInAddress } from './lib/lang';

const start = async () => {
  const lang = ensureLangInAddress();
  await initI18n(lang);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing');
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
};

void start();
