export function Hero({ showControls }: { showControls: boolean }) {
  return (
    <header>
      <video src="/hero.mp4" autoPlay muted loop playsInline /> {/* want "plays muted by itself" */}
      <video src="/hero.mp4" autoPlay controls={false} /> {/* want "starts playing with sound" */}
      <video src="/hero.mp4" autoPlay controls={showControls} />
      <video src="/hero.mp4" autoPlay={false} />
    </header>
  );
}
