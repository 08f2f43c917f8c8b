export function Gallery({ photos, ...rest }) {
  return (
    <div>
      {photos.map((p) => <img key={p.id} src={p.url} />)} {/* want "<img> without alt text" */}
      {photos.map((p) => <img key={p.id} src={p.url} alt={p.caption} />)}
      <img src="/hero.jpg" {...rest} />
      <Image src="/next.jpg" />
      {count < limit && <img src="/warn.png" alt="" />}
    </div>
  );
}
