// A second route of the host, so the viewer can leave the dashboard and come back. Static:
// prerendered by `next build`, no session, no embed.
export default function SettingsPage() {
  return (
    <main>
      <section className="panel" data-testid="settings">
        <h2>Settings</h2>
        <p>
          The host&apos;s own page. The dashboard you left is still there, hidden: Next.js keeps the routes a viewer left rendered (with{' '}
          <code>cacheComponents</code>), so going back shows the same embed, with its session, its place and the color scheme you chose,
          without loading it again.
        </p>
      </section>
    </main>
  );
}
