// The page's router: one view at a time, chosen by the URL's #hash.
const views = {
  watch: () => import('/assets/watch.js'),
  replay: () => import('/assets/replay.js'),
  analyse: () => import('/assets/analyse.js'),
  play: () => import('/assets/play.js'),
  minijong: () => import('/assets/minijong.js'),
  standard: () => import('/assets/standard.js'),
};

let unmount = null;
let generation = 0;

async function show() {
  const name = (location.hash.slice(1) || 'watch').split('?')[0];
  const load = views[name] || views.watch;
  const mine = ++generation;
  if (unmount) { unmount(); unmount = null; }
  const root = document.getElementById('view');
  root.replaceChildren();
  for (const a of document.querySelectorAll('nav a')) {
    a.classList.toggle('active', a.id === 'nav-' + name);
  }
  const module = await load();
  if (mine !== generation) return;
  unmount = module.mount(root) || null;
  root.dataset.view = name;
}

window.addEventListener('hashchange', show);
show();
