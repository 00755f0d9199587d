const $=id=>document.getElementById(id);
function esc(s){return String(s).replace(/[&<>"']/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]));}
function bars(counts,mark,wide){const w=300,h=90,n=counts.length,m=Math.max(1,...counts);let s='';
 counts.forEach((c,i)=>{const bh=Math.round(c/m*(h-14));s+=`<rect x="${i*w/n+1}" y="${h-12-bh}" width="${w/n-2}" height="${bh}" fill="#1f6feb"/>`;});
 if(mark!=null){const x=mark*w;s+=`<line x1="${x}" x2="${x}" y1="0" y2="${h-12}" stroke="#d1242f" stroke-width="3"/>`;}
 s+=`<text x="0" y="${h}" font-size="10">0</text><text x="${w/2-6}" y="${h}" font-size="10">0.5</text><text x="${w-8}" y="${h}" font-size="10">1</text>`;
 return `<svg viewBox="0 0 ${w} ${h}" width="100%" style="max-width:${wide?2*w:w}px" role="img" aria-label="spread of the guesses">${s}</svg>`;}
function stream(url,onData){let es=null;function open(){es=new EventSource(url);
 es.onopen=()=>{$('live').textContent='live';};
 es.onmessage=e=>{$('live').textContent='live';onData(JSON.parse(e.data));};
 es.onerror=()=>{$('live').textContent='reconnecting…';if(es.readyState===2){setTimeout(open,1000);}};}
 open();}
