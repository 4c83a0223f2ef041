import json,sys,collections
p=json.load(open(sys.argv[1]))
nodes={n['id']:n for n in p['nodes']}
self=collections.Counter()
dt=p['timeDeltas']; samples=p['samples']
for s,d in zip(samples,dt):
    n=nodes[s]; cf=n['callFrame']
    key=f"{cf['functionName'] or '(anon)'} {cf['url'].split('/')[-1]}:{cf['lineNumber']}"
    self[key]+=d
tot=sum(self.values())
for k,v in self.most_common(40): print(f"{v/tot*100:5.1f}% {k}")
