from holodeck_mt.app.entry import run

run()
