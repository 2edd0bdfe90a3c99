/** Starter files: files of public/, served as they are. */
export const publicFiles: Record<string, string> = {
  "public/robots.txt": `# Files in public/ are served as they are: this one is /robots.txt.
User-agent: *
Allow: /
`,

  "public/favicon.svg": `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#4f46e5"/><stop offset="1" stop-color="#0ea5e9"/></linearGradient></defs><rect width="32" height="32" rx="9" fill="url(#g)"/></svg>
`,
};
