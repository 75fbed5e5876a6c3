import { secureHeaders } from 'hono/secure-headers';

// Vite's dev server injects an inline React Refresh preamble; production builds have no inline
// script, so only `npm run dev` (mode 'development', not vitest's 'test') relaxes script-src.
const scriptSrc = import.meta.env?.MODE === 'development' ? ["'self'", "'unsafe-inline'"] : ["'self'"];

/** Security headers for every response the Worker sends, pages and API alike. */
export const securityHeaders = () =>
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc,
      // Mantine writes its CSS variables into a <style> element at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    strictTransportSecurity: 'max-age=31536000; includeSubDomains',
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
    permissionsPolicy: {
      camera: [],
      microphone: [],
      geolocation: [],
      payment: [],
      usb: [],
    },
  });
