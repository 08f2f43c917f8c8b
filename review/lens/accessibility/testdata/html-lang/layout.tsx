export default function RootLayout({ children, locale }: { children: React.ReactNode; locale: string }) {
  return (
    <html lang={locale}>
      <body>{children}</body>
    </html>
  );
}

export function Legacy({ children }: { children: React.ReactNode }) {
  return (
    <html> {/* want "<html> without a language" */}
      <body>{children}</body>
    </html>
  );
}
