/*
 * The stylesheet of the buyers' pages, served from the module itself
 * (GET /recursos/compradores.css): no build step, no CDN. Kept in a .ts file
 * so that `node ace build` ships it without extra configuration.
 * Colours meet WCAG AA contrast on their backgrounds.
 */
export const css = `
*,*::before,*::after{box-sizing:border-box}
html{font-size:100%;-webkit-text-size-adjust:100%}
body{margin:0;overflow-wrap:break-word;min-height:100vh;display:flex;flex-direction:column;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;line-height:1.5;color:#1f2933;background:#f3f5f8}
a{color:#0b5cad}
a:hover{color:#08437f}
:focus-visible{outline:3px solid #b45309;outline-offset:2px}
img{max-width:100%;height:auto;display:block}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);border:0}
.skip{position:absolute;left:-9999px;top:0;background:#fff;padding:.5rem 1rem;z-index:10}
.skip:focus{left:1rem;top:1rem}
.site-header{background:#0b2545;color:#fff}
.site-header .wrap{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding-top:.9rem;padding-bottom:.9rem}
.brand{color:#fff;margin:0;font-weight:700;font-size:1.2rem;letter-spacing:.01em}
.brand-mark{display:inline-block;width:1.6rem;height:1.6rem;border-radius:.4rem;background:#f5a623;color:#0b2545;text-align:center;line-height:1.6rem;margin-right:.5rem;font-weight:800}
.tagline{color:#c9d6e8;font-size:.9rem;margin:0}
@media (max-width:40rem){.tagline{display:none}}
.wrap{max-width:72rem;margin:0 auto;padding-left:1rem;padding-right:1rem}
main{flex:1 0 auto;width:100%;padding-top:1.5rem;padding-bottom:3rem}
.crumbs{font-size:.9rem;color:#52606d;margin:0 0 .75rem}
.crumbs a{color:#0b5cad}
h1{font-size:1.75rem;line-height:1.2;margin:0 0 .35rem}
h2{font-size:1.25rem;margin:0 0 .75rem}
.subtitle{color:#52606d;margin:0 0 1.25rem}
.layout{display:grid;grid-template-columns:1fr;gap:1.5rem}
@media (min-width:60rem){.layout{grid-template-columns:minmax(0,1fr) 24rem;grid-template-areas:"gallery aside" "details aside";align-items:start}.gallery{grid-area:gallery}.details{grid-area:details}.aside{grid-area:aside}}
.layout>*{min-width:0}
.gallery{background:#fff;border:1px solid #d9e0e8;border-radius:.75rem;padding:1rem}
.card{background:#fff;border:1px solid #d9e0e8;border-radius:.75rem;padding:1.25rem;margin-bottom:1.5rem}
.gallery-main{margin:0 0 .75rem;border-radius:.6rem;overflow:hidden;background:#e4e9f0;aspect-ratio:16/10}
.gallery-main img{width:100%;height:100%;object-fit:cover}
.thumbs{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(6.5rem,1fr));gap:.5rem}
.thumbs a{display:block;border-radius:.4rem;overflow:hidden;border:2px solid transparent;aspect-ratio:4/3;background:#e4e9f0}
.thumbs a:hover{border-color:#0b5cad}
.thumbs img{width:100%;height:100%;object-fit:cover}
.no-photos{padding:3rem 1rem;text-align:center;color:#52606d;background:#e4e9f0;border-radius:.6rem}
.price{font-size:2rem;font-weight:800;color:#0b2545;margin:0}
.price-note{color:#52606d;font-size:.95rem;margin:.25rem 0 0}
.badge{display:inline-block;font-size:.8rem;font-weight:700;padding:.15rem .55rem;border-radius:999px;background:#e3f1e8;color:#14532d;margin-bottom:.5rem}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.75rem 1.25rem;margin:0}
.facts div{border-bottom:1px solid #edf1f5;padding-bottom:.5rem}
.facts dt{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:#52606d}
.facts dd{margin:0;font-weight:600}
.description{white-space:pre-line;margin:0;overflow-wrap:anywhere}
.equipment{columns:2 14rem;margin:0;padding-left:1.1rem}
.seller{display:flex;gap:.9rem;align-items:flex-start}
.seller-mark{flex:none;width:2.75rem;height:2.75rem;border-radius:50%;background:#0b2545;color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700}
.seller p{margin:0}
.seller .name{font-weight:700}
.muted{color:#52606d}
.form .field{margin-bottom:.9rem}
.form label{display:block;font-weight:600;margin-bottom:.25rem}
.form .hint{display:block;font-weight:400;color:#52606d;font-size:.85rem}
.form input,.form select,.form textarea{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #8a99a8;border-radius:.4rem;background:#fff;color:#1f2933}
.form textarea{min-height:7rem;resize:vertical}
.form [aria-invalid=true]{border-color:#b42318;border-width:2px}
.form .error{color:#b42318;font-size:.9rem;margin:.3rem 0 0;font-weight:600}
.form .row{display:grid;grid-template-columns:1fr 1fr;gap:0 .75rem}
@media (max-width:24rem){.form .row{grid-template-columns:1fr}}
.trap{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.button{display:inline-block;width:100%;font:inherit;font-weight:700;font-size:1.05rem;padding:.8rem 1rem;border:0;border-radius:.5rem;background:#0b5cad;color:#fff;cursor:pointer;text-align:center;text-decoration:none}
.button:hover{background:#08437f;color:#fff}
.summary{border:2px solid #b42318;border-radius:.5rem;padding:.75rem 1rem;margin-bottom:1rem;background:#fdf2f1}
.summary h3{margin:0 0 .35rem;font-size:1rem;color:#b42318}
.summary ul{margin:0;padding-left:1.1rem}
.legal{font-size:.8rem;color:#52606d;margin:.75rem 0 0}
.notice{max-width:40rem;margin:2rem auto;text-align:center}
.notice .icon{display:inline-flex;align-items:center;justify-content:center;width:3.5rem;height:3.5rem;border-radius:50%;font-size:2rem;font-weight:800;line-height:1;margin:0 0 .75rem;background:#e4e9f0;color:#0b2545}
.notice .icon.ok{background:#e3f1e8;color:#14532d}
.notice .button{width:auto;margin-top:1rem}
.versions{width:100%;border-collapse:collapse;font-size:.95rem}
.versions th,.versions td{text-align:left;padding:.55rem .5rem;border-bottom:1px solid #edf1f5;vertical-align:top}
.versions thead th{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:#52606d}
.versions tbody th{font-weight:600}
.table-scroll{overflow-x:auto}
.site-footer{border-top:1px solid #d9e0e8;background:#fff;color:#52606d;font-size:.85rem}
.site-footer .wrap{padding-top:1.25rem;padding-bottom:1.25rem}
`
