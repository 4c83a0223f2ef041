import json,sys,collections
p=json.load(open(sys.argv[1]))
nodes={n['id']:n for n in p['nodes']}
parent={}
for n in p['nodes']:
    for c in n.get('children',[]): parent[c]=n['id']
def cat(url):
    if 'node_modules/' in url:
        rest=url.split('node_modules/')[-1].split('/')
        return rest[0] if not rest[0].startswith('@') else rest[0]+'/'+rest[1]
    if '/src/' in url: return 'src/'+url.split('/src/')[-1]
    if url.startswith('node:'): return 'node-core'
    return url or 'native'
selfc=collections.Counter()
for s,d in zip(p['samples'],p['timeDeltas']):
    n=nodes[s]; selfc[cat(n['callFrame']['url'])+' '+(n['callFrame']['functionName'] if not n['callFrame']['url'] else '')]+=d
tot=sum(v for k,v in selfc.items() if '(idle)' not in k)
for k,v in selfc.most_common(30):
    if '(idle)' in k: continue
    print(f"{v/tot*100:5.1f}% {k}")
